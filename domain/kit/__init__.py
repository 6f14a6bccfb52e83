"""The kit every game is built with: cards, the Decider frame, the state's shape, a game's
description, dispatch, templates, codecs, the game's end and ranking, a search's budget. The
domain's lowest layer: it imports nothing of the domain's."""
