"""The table's club side: the [club] config section, the files the table and its link share, the
seating and player tags the kiosk confirms, and the link (its own process, ``link/``).
"""
