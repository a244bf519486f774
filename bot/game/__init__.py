"""The game service: every change to a chat's match, the computer players, the rulebook pages."""
