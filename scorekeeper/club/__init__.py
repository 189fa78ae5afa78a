"""A club night: several tables at once (seating now; standings and ratings to come). Pure code."""
