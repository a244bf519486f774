"""What the pictures and captions say: how they ask `tr` for words and name people,
the ends' names, moves, rounds and their ends, takeovers and the final table's marks,
the captions themselves, and every message id they use."""
