"""What the kiosk shows: the view built from the table's state, the open-card analysis of finished
games, screenshots, and the kiosk bench (tap to frame).
"""
