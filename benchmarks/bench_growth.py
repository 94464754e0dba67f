"""How fit (or query) times grow with the number of samples, mllib against
scikit-learn: the slope of log(time) against log(n).

For k-means, DBSCAN, k-nearest neighbours (d = 10 and 5, each library's
default search: a k-d tree), SVC and the trees, each estimator
is timed at n = 1000, 4000, 16000 and, where a fit takes seconds rather than
minutes, 64000, on the data of the ratio benchmarks (the same generators,
more samples). mllib's slope may exceed scikit-learn's by at most 0.2: a
larger slope means an algorithm of a higher order, whatever the ratio at
one size.

Run from the repository root: ``python benchmarks/bench_growth.py``.
"""

from bench_svm_kernels import svc_data, svc_pair
from bench_trees_ensembles import (
    knn_data,
    knn_pair,
    regression_data,
    regression_tree_pair,
    tree_data,
    tree_pair,
)
from bench_unsupervised import (
    dbscan_data,
    dbscan_pair,
    kmeans_data,
    kmeans_pair,
)
from threadpoolctl import threadpool_limits
from timing import growth

SIZES = (1000, 4000, 16000, 64000)


def rows():
    return [
        growth(
            "KMeans d=10, k=8 (lloyd, same centres)",
            SIZES,
            lambda n: kmeans_pair(*kmeans_data(n), check=True),
        ),
        growth(
            "DBSCAN 2-D, about 30 neighbours per point",
            SIZES,
            lambda n: dbscan_pair(*dbscan_data(n), check=True),
        ),
        growth(
            "KNeighborsClassifier predict, 1000 queries, d=10",
            SIZES,
            lambda n: knn_pair(*knn_data(n, 1000), check=True),
        ),
        growth(
            "KNeighborsClassifier predict, 1000 queries, d=5",
            SIZES,
            lambda n: knn_pair(*knn_data(n, 1000, d=5), check=True),
        ),
        growth(
            "SVC rbf C=10, make_classification (d=10)",
            SIZES[:3],
            lambda n: svc_pair(
                *svc_data(n)["make_classification (d=10)"], 10.0, check=True
            ),
        ),
        growth(
            "DecisionTreeClassifier d=10, full depth",
            SIZES,
            lambda n: tree_pair(*tree_data(n), check=True),
        ),
        growth(
            "DecisionTreeRegressor d=10, full depth",
            SIZES,
            lambda n: regression_tree_pair(*regression_data(n), check=True),
        ),
    ]


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        rows()
