"""The people of the parlour: accounts and their names, the session cookie, players'
statistics and ratings, daily deals."""
