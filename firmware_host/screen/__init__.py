"""What the kiosk shows (floor 2): the view built from the table's state, the open-card
analysis of finished games, and screenshots of every phase.
"""
