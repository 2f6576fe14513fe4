"""Live streaming into a notebook: the consumer that drives a source, and ``StreamView``."""
