"""Playing a game: moves, boards, turn messages, threads, aborts, the computer, game lists."""
