"""What the GPU test files share: whether torch has a CUDA GPU, `raises`, and running every
test_* function of a module as a script (the GPU machine has torch but not pytest)."""
import sys

try:
    import torch
    HAVE_GPU = torch.cuda.is_available()
except ImportError:
    torch = None
    HAVE_GPU = False


def raises(exception, match, function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except exception as error:
        assert match in str(error), f"expected '{match}' in: {error}"
        return
    raise AssertionError(f"{exception.__name__} not raised")


def run_as_script(namespace):
    """Runs the test_* functions of `namespace` (a module's globals()), reports each, exits."""
    if not HAVE_GPU:
        print("skipped: needs torch with a CUDA GPU")
        sys.exit(0)
    failed = 0
    for name, test in sorted(namespace.items()):
        if name.startswith("test_") and callable(test):
            try:
                test()
                print(f"PASS {name}")
            except Exception as error:  # report every test, then fail
                failed += 1
                print(f"FAIL {name}: {type(error).__name__}: {error}")
    print(f"{failed} failed")
    sys.exit(1 if failed else 0)
