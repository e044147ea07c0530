#include "ultrasound/rf_writer.hpp"

#include <stdexcept>
#include <string>

#include "store/acquisition_layout.hpp"
#include "store/hdf5_handle.hpp"
#include "store/staged_h5_file.hpp"

namespace cineflow::ultrasound {

store::AttributeMap optionalRfAttributes(const acquire::AcquisitionParams& acq) {
  store::AttributeMap attributes;
  if (acq.fractionalBandwidth > 0 && !acq.bandwidthMeasured) {  // a measured one is not recorded
    attributes.emplace("fractional_bandwidth_percent", acq.fractionalBandwidth * 100);
  }
  if (acq.pulseRepetitionFrequencyHz > 0) {
    attributes.emplace("pulse_repetition_frequency_hz", acq.pulseRepetitionFrequencyHz);
  }
  return attributes;
}

void writeRfRecording(const std::filesystem::path& path,
                      const ultrasound::ImportedRecording& recording,
                      const store::AttributeMap& extra) {
  const acquire::AcquisitionParams& acq = recording.acq;
  const bool int16 = recording.sampleType == acquire::SampleType::Int16;
  const std::size_t values = recording.frames * acq.samplesPerFrame();
  const std::size_t held = int16 ? recording.int16Samples.size() : recording.float32Samples.size();
  if (recording.frames == 0 || held != values) {
    throw store::StoreError("cannot save " + path.string() + ": the recording holds " +
                            std::to_string(held) + " samples, expected " + std::to_string(values) +
                            " (" + std::to_string(recording.frames) + " frames)");
  }
  try {
    acq.validate();
  } catch (const std::invalid_argument& e) {
    throw store::StoreError("cannot save " + path.string() + ": " + e.what());
  }
  const store::ErrorScope quiet;
  store::StagedH5File file(path);
  store::H5Dataset rf;
  try {
    const hid_t root = file.get();
    store::AttributeMap attributes = extra;
    attributes.merge(optionalRfAttributes(acq));
    store::writeAcquisition(root, "cineflow.rf/1", acq, attributes);
    const hsize_t dims[4] = {recording.frames, static_cast<hsize_t>(acq.transmits()),
                             static_cast<hsize_t>(acq.elements()),
                             static_cast<hsize_t>(acq.samples)};
    const hsize_t chunk[4] = {1, dims[1], dims[2], dims[3]};
    store::H5Dataspace space(store::checkId(H5Screate_simple(4, dims, nullptr), "rf: dataspace"));
    store::H5PropertyList properties(
        store::checkId(H5Pcreate(H5P_DATASET_CREATE), "rf: property list"));
    store::checkStatus(H5Pset_chunk(properties.get(), 4, chunk), "rf: set chunk");
    rf = store::H5Dataset(
        store::checkId(H5Dcreate2(root, "rf", int16 ? H5T_STD_I16LE : H5T_IEEE_F32LE, space.get(),
                                  H5P_DEFAULT, properties.get(), H5P_DEFAULT),
                       "rf: create"));
    store::writeStringAttribute(rf.get(), "dimensions", "frames, transmits, elements, samples");
    const void* data = int16 ? static_cast<const void*>(recording.int16Samples.data())
                             : static_cast<const void*>(recording.float32Samples.data());
    store::checkStatus(H5Dwrite(rf.get(), int16 ? H5T_NATIVE_INT16 : H5T_NATIVE_FLOAT, H5S_ALL,
                                H5S_ALL, H5P_DEFAULT, data),
                       "rf: write");
  } catch (const store::Hdf5Error& e) {
    rf.reset();
    file.fail("write", e.what());
  }
  file.commit({{&rf, "rf"}});
}

}  // namespace cineflow::ultrasound
