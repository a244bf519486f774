"""The drawing kit: colours, the shipped fonts, text drawn and measured in lines, the
sprites (tiles, end marks, icons) and the encoded picture. It knows no game."""
