"""Training the ``neural`` player: labelled decisions from the engine's own deals (:mod:`.labels`,
:mod:`.data`) and the network's training (:mod:`.fit`, which needs the ``train`` extra's PyTorch).

This room sits above the pandas layer and nothing in the package below imports it; the player itself
(:mod:`belot_sim.kernels.players.neural`) reads only the weights file it writes.  The command that
runs it all is ``scripts/train_neural.py``.
"""
