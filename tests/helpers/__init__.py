"""What several test modules share: toy problems with brute-force optima, the independent counter of emitted code."""
