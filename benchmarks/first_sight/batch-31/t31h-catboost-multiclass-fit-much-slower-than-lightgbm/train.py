model = CatBoostClassifier(
    n_estimators=60,
    learning_rate=0.1,
    depth=6,
    max_ctr_complexity=1,
    loss_function='MultiClass'
)
