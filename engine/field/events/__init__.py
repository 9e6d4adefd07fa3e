"""Whole results files: read PBN and USEBIO events, apply a TD's rulings across sessions,
score them, and write the corrected file back (``bridgelaw event``, docs/events.md)."""
