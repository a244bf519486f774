"""The final table's picture: where everything goes (its layout) and its drawing."""
