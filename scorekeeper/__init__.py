"""The Gleek scorekeeper."""
