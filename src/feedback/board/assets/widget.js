// placeholder: the embeddable widget is written on the widget branch
