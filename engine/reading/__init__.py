"""The reading layer's decisions about what the sources settle: when a short answer is a commitment, and why not."""
