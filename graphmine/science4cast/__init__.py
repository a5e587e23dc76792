"""Science4Cast: temporal link prediction in a growing concept graph.

Read and write the competition's pickles (:mod:`.io`), generate synthetic data in that format
(:mod:`.generator`), build yearly snapshots and sample pairs (:mod:`.snapshots`), compute pair
features over several snapshots with Numba kernels (:mod:`.features`), and train gradient-boosted
models on the data's past (:mod:`.models`), blended by rank averaging and compared with a
degree-only baseline. Reading, writing, generating and computing features need only graphmine's
base dependencies; models need the ``ml`` extra (``pip install "graphmine[ml]"``: scikit-learn and
lightgbm), imported only when a model is built or loaded. Stages are logged (INFO) to the
``graphmine.science4cast`` logger.
"""

from .features import feature_names, pair_features, swap_permutation
from .generator import generate_benchmark, generate_temporal_graph
from .io import (Science4CastData, load_pickle, make_data, read_benchmark, read_competition, read_data,
                 read_solution, write_benchmark, write_competition, write_solution)
from .snapshots import (edges_before, multigraph_degree, pair_edge_counts, sample_pairs, snapshot,
                        snapshot_weights, training_pairs, year_end_day)

__all__ = [
    "Science4CastData", "load_pickle", "make_data", "read_benchmark", "read_competition", "read_data",
    "read_solution", "write_benchmark", "write_competition", "write_solution",
    "generate_benchmark", "generate_temporal_graph",
    "edges_before", "multigraph_degree", "pair_edge_counts", "sample_pairs", "snapshot", "snapshot_weights",
    "training_pairs", "year_end_day",
    "feature_names", "pair_features", "swap_permutation",
]
