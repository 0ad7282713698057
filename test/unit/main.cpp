// The Catch2 main for tile-unittests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
