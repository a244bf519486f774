"""A seat's own hand picture: its tiles, numbered as the buttons number them."""
