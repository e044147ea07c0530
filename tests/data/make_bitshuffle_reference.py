#!/usr/bin/env python3
"""Writes bitshuffle_lz4_reference.h5: chunks compressed by the bitshuffle project's own HDF5
filter (32008, LZ4), through h5py, beside the same values stored plainly, so that Cineflow's
decoders are checked against an implementation that is not Cineflow's (test_bitshuffle_lz4).

Run with Debian's python3-h5py and bitshuffle packages:
    /usr/bin/python3 tests/data/make_bitshuffle_reference.py tests/data/bitshuffle_lz4_reference.h5
"""
import sys

import bitshuffle.h5
import h5py
import numpy as np


def main(path):
    rng = np.random.default_rng(20261125)
    # Frames of each kind Cineflow records: RF int16 and float32 [frames][transmits][elements]
    # [samples], OCT uint16 [frames][ascans][samples]; sizes that leave a partial block and a
    # tail of fewer than 8 elements, and smooth signals (which compress) plus noise.
    t = np.arange(1203)
    rf16 = (800 * np.sin(0.3 * t)[None, None, None, :] +
            rng.normal(0, 40, size=(3, 2, 5, t.size))).astype('<i2')
    rf32 = (np.cos(0.07 * t)[None, None, None, :] *
            rng.normal(1, 0.1, size=(2, 1, 4, t.size))).astype('<f4')
    spectra = (2000 + 1500 * np.exp(-((np.arange(2050) - 1000) / 400.0) ** 2)[None, None, :] +
               rng.normal(0, 30, size=(2, 7, 2050))).clip(0, 4095).astype('<u2')
    with h5py.File(path, 'w') as f:
        f.attrs['made_by'] = 'tests/data/make_bitshuffle_reference.py (h5py %s, bitshuffle filter)' % h5py.__version__
        for name, data in (('rf_int16', rf16), ('rf_float32', rf32), ('spectra_uint16', spectra)):
            f.create_dataset(name, data=data, chunks=(1,) + data.shape[1:],
                             compression=bitshuffle.h5.H5FILTER,
                             compression_opts=(0, bitshuffle.h5.H5_COMPRESS_LZ4))
            f.create_dataset('plain_' + name, data=data)


if __name__ == '__main__':
    main(sys.argv[1])
