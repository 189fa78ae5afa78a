"""A club night: several tables at once. Pure code (no Flask, no SQL): the seating of
each round, the table placings, and the players' ratings."""
