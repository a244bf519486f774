"""Where things lie on the board, in numbers: the picture's sizes, the table's grid
(each ray a snake from the opening or the hub, every tile placed once) and its fitting
to the board's pixels. No drawing, no words."""
