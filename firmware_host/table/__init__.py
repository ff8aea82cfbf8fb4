"""The table in play (floor 1): what it can be told (inputs), the rules answering each input by
the phase of the game (controller), the computer seats, the readable game log, and the results
as JSON.
"""
