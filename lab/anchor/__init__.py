"""Outside programs the strength harness measures our players against (see docs/players.md,
"The anchor: XSkat 4.0")."""
