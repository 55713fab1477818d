"""The founding papers' analyses as tools.

* ``.classes``: resolution classes (Stoyanov et al. 2009 §4.1) with per-class scores;
* ``.cpp``: coreference performance prediction (Stoyanov et al. 2009 §4.4);
* ``.mention_effect``: the mention identification effect (Moosavi & Strube 2016 §2);
* ``.lab``: controlled experiments on artificial outputs (Luo 2005 §3.1;
  Moosavi & Strube 2016 §7).

Modules are imported on use; none is needed for scoring.
"""
