"""stats/lanes.py worked by hand: the mutants mutmut left alive (docs/recipes.md#mutation-testing), each killed here
or listed as equivalent in tests/mutants_equivalent_stats.txt."""

from nclue.stats.lanes import pack, unpack, width_for


def test_pack_of_no_items_is_no_ints():
    """No rows: the lane count defaults to 0 (max of nothing), so nothing is packed and nothing raises."""
    assert pack([], bias=3, width=4) == []
    assert pack([[]], bias=3, width=4) == [0]          # one item with no lanes packs to 0


def test_pack_puts_each_biased_lane_at_its_shift():
    """Lane j of one item is value_j + bias shifted left by j * width bits."""
    assert pack([[1, 2]], bias=8, width=8) == [(1 + 8) + ((2 + 8) << 8)]
    assert pack([[0, -1, 5]], bias=1, width=3) == [1 + (0 << 3) + (6 << 6)]


def test_width_for_is_the_bit_length_of_the_largest_lane_sum_plus_one():
    """((bias + max_abs) * count).bit_length() + 1, by hand."""
    assert width_for(1, 1, 1) == 3                     # 2 = 0b10: 2 bits, + 1
    assert width_for(0, 0, 5) == 1                     # 0 has bit length 0
    assert width_for(9, 9, 3) == 7                     # 54 = 0b110110: 6 bits, + 1
    assert width_for(3, 4, 2) == 5                     # 14 = 0b1110


def test_unpack_subtracts_count_biases_per_lane():
    """Two items of two lanes summed: each lane holds its sum plus 2 biases."""
    packed = pack([[3, -2], [-5, 4]], bias=5, width=6)
    assert unpack(sum(packed), lanes=2, width=6, bias=5, count=2) == [-2, 2]
    assert unpack(sum(packed), lanes=1, width=6, bias=5, count=2) == [-2]
