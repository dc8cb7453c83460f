"""Help, rules and the rule sheets."""
