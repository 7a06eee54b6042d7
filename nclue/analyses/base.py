"""Declared analyses and their units (see package doc)."""


class Unit:
    __slots__ = ("key", "inputs", "compute")

    def __init__(self, key, inputs, compute):
        self.key = key              # short label for messages
        self.inputs = list(inputs)  # relative paths the unit reads
        self.compute = compute      # () -> [Value]


class Analysis:
    def __init__(self, name, level, source, units):
        self.name, self.level, self.source = name, level, source
        self._units = units

    def units(self, inst):
        return self._units(inst)
