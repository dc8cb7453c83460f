"""Mark Steere's rule sheets, shipped as package data (published by him for free distribution)."""
