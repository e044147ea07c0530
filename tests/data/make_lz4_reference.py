#!/usr/bin/env python3
"""Writes lz4_reference.h5: chunks compressed by HDF5's LZ4 filter (32004) through h5py and
hdf5plugin, beside the same values stored plainly, so that Cineflow's LZ4 decoders (on the
acquisition thread, the CPU pool and the GPU) are checked against an implementation that is not
Cineflow's (test_compressed_replay).

Two block sizes: the filter's default (1 GiB, so one block per frame, which replay decodes on the
host) and 8 KiB (as Cineflow records, which replay hands to the pool or GPU decoder).

Run with Debian's python3-h5py and python3-hdf5plugin packages:
    /usr/bin/python3 tests/data/make_lz4_reference.py tests/data/lz4_reference.h5
"""
import sys

import h5py
import hdf5plugin
import numpy as np


def main(path):
    rng = np.random.default_rng(20261126)
    # RF int16 [frames][transmits][elements][samples] and OCT uint16 [frames][ascans][samples]:
    # smooth signals (which compress) plus noise, and one frame of pure noise (blocks that do not
    # compress, which the filter stores as they are).
    t = np.arange(1203)
    rf16 = (800 * np.sin(0.3 * t)[None, None, None, :] +
            rng.normal(0, 40, size=(3, 2, 5, t.size))).astype('<i2')
    rf16[2] = rng.integers(-32768, 32767, size=rf16.shape[1:], dtype='<i2')
    spectra = (2000 + 1500 * np.exp(-((np.arange(2050) - 1000) / 400.0) ** 2)[None, None, :] +
               rng.normal(0, 30, size=(2, 7, 2050))).clip(0, 4095).astype('<u2')
    with h5py.File(path, 'w') as f:
        f.attrs['made_by'] = ('tests/data/make_lz4_reference.py (h5py %s, hdf5plugin %s)' %
                              (h5py.__version__, hdf5plugin.version))
        for name, data in (('rf_int16', rf16), ('spectra_uint16', spectra)):
            f.create_dataset(name, data=data, chunks=(1,) + data.shape[1:],
                             **hdf5plugin.LZ4())
            f.create_dataset(name + '_8k', data=data, chunks=(1,) + data.shape[1:],
                             **hdf5plugin.LZ4(nbytes=8192))
            f.create_dataset('plain_' + name, data=data)


if __name__ == '__main__':
    main(sys.argv[1])
