def run_fit(args):
    return 2
