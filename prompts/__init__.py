"""Prompt files, one per model task; each lists the variables it takes at the top."""
