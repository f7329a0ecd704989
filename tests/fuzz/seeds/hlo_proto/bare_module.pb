
bareA
e
cconstant˜"
cccustom-callâfoo˜¢(00