"""The group's board picture: the table with its tiles (and twolane's lanes), the panel
under it with its status column, and the board's layout as data for a page."""
