"""The table's club side (floor 1, beside the table): the ``[club]`` config section, the
files the table and its link share, the seating and player tags the kiosk confirms, and the link
itself (``link/``: its own process, never imported by the controller).
"""
