"""Driving the /play page in Debian's Chromium (playwright), as tests/browser and
bench/play_page.py do: the pages, the table page's contract, what a player may know."""
