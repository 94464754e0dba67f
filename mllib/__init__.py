"""mllib: small, readable numpy/scipy implementations of the methods derived in
the book.

Each estimator follows scikit-learn's API (same class, parameter and attribute
names, same objective), so results agree number for number and readers can move
between the two. See the book's notation page for the scaling conventions.
"""

__version__ = "0.1.0"
