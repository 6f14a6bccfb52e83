"""Rules several games share: the deal and its seeds, passing, tricks, poker hands. Written in
the kit's vocabulary: it imports only domain.kit."""
