"""The tables in play: the hub and its parts (one concern each), a table in memory, its
clocks, bots, words and reviews, and the sessions of its clients."""
