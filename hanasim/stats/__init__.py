"""Statistics: exact deal-time probabilities and simulation summaries."""
