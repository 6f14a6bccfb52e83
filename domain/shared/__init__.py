"""Rules several games share: cards, the deal and its seeds, passing, tricks, poker hands, the
outcome and ranking."""
