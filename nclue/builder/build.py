"""The whole stand-in in build order (docs/stand-in.md): ``data/v1`` (CrossPage), then ``data/v2``
(SourceShift) and ``data/audit`` (the simulated label audit), then both stats files."""

from . import crosswalk_writer, sourceshift_instrument, sourceshift_release
from .crosspage import write_instrument
from .rankings import peak_memory
from .stats_files import write_stats_audit, write_stats_v2


def write_all(out_root, cfg, seed, shift_seed=None, log=print):
    """Write every data file of the stand-in under ``out_root``; return the relative paths written."""
    shift_seed = sourceshift_instrument.SHIFT_SEED if shift_seed is None else shift_seed
    written, v1 = write_instrument(out_root, cfg, seed, log=log)
    log("stage CrossPage written%s" % peak_memory())
    v2, more = sourceshift_release.write_sourceshift(out_root, cfg.name, shift_seed, log=log)
    written += more
    log("stage SourceShift written%s" % peak_memory())
    written += sourceshift_release.write_audit(out_root, cfg.name, v1, v2, shift_seed, log=log)
    log("stage audit written%s" % peak_memory())
    written.append(write_stats_v2(out_root, cfg.name))
    written.append(write_stats_audit(out_root, cfg.name))
    written.append(crosswalk_writer.write(out_root))
    return written
