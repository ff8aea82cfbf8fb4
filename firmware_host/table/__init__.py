"""The table in play: what it can be told (inputs), the rules answering each input by the phase of
the game (controller), the computer seats, and the readable game log.
"""
