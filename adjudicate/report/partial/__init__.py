"""A partly read queue: strata, the imputation bootstrap, bounds and what more reading would settle."""
