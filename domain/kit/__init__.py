"""The kit every game is built with: the Decider frame, a game's description, dispatch, templates,
codecs."""
