# Cineflow's Debian package (`make package`, i.e. cpack with this build's CPackConfig.cmake): the
# executable and shipped plugins, the plugin header and template for a lab's own plugin, the
# desktop entry, icon, AppStream metadata, manual page, copyright and changelog. A CUDA build also
# carries the CUDA runtime libraries the executable links (cudart, cuFFT) privately in
# /usr/lib/cineflow/cuda, found through its RPATH, so that it starts where no CUDA toolkit is
# installed. (One folder below /usr/lib/cineflow, so that CPack adds no ldconfig calls: the folder
# is not the linker's.)
set(CINEFLOW_APP_ID io.github.cineflow.Cineflow)
set(packaging_dir ${PROJECT_SOURCE_DIR}/packaging)
set(generated_dir ${CMAKE_BINARY_DIR}/packaging)
set(doc_dir share/doc/cineflow)
set(CINEFLOW_PACKAGE_MAINTAINER "Cineflow developers <cineflow@localhost>" CACHE STRING
    "Maintainer of the Debian package (its control file and changelog)")
configure_file(${packaging_dir}/changelog.in ${generated_dir}/changelog @ONLY)

install(FILES ${packaging_dir}/${CINEFLOW_APP_ID}.desktop DESTINATION share/applications)
install(FILES ${packaging_dir}/${CINEFLOW_APP_ID}.metainfo.xml DESTINATION share/metainfo)
install(FILES ${packaging_dir}/${CINEFLOW_APP_ID}.svg DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${packaging_dir}/template-plugin/Makefile DESTINATION ${doc_dir}/examples/template-plugin)
# The network sender a lab's acquisition script can start from (docs/plugins-and-streaming.md).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/send_frames.py DESTINATION share/cineflow/tools)

# The manual page and the bash completion are written from the built executable's --help texts
# (packaging/help_docs), so that they say what the program says: an option added to a --help is
# in both with the next build.
find_program(CINEFLOW_PYTHON3 python3)
set(man_page ${generated_dir}/cineflow.1)
set(completion ${generated_dir}/cineflow.bash)
set(docs ${generated_dir}/changelog)  # gzipped below
if(CINEFLOW_PYTHON3)
  file(GLOB help_docs_sources CONFIGURE_DEPENDS ${packaging_dir}/help_docs/*.py)
  add_custom_command(OUTPUT ${man_page} ${completion}
    COMMAND ${CINEFLOW_PYTHON3} -B ${packaging_dir}/help_docs/generate.py $<TARGET_FILE:cineflow>
            ${packaging_dir}/cineflow.1.in ${man_page} ${completion}
    DEPENDS cineflow ${packaging_dir}/cineflow.1.in ${help_docs_sources}
    COMMENT "Writing the manual page and bash completion from cineflow --help" VERBATIM)
  install(FILES ${completion} DESTINATION share/bash-completion/completions RENAME cineflow)
  list(APPEND docs ${man_page})
else()
  message(WARNING "python3 not found: the package will lack its manual page and bash completion")
endif()

# Manual page and changelog gzipped as Debian wants them: -9, without name or timestamp.
find_program(CINEFLOW_GZIP gzip)
set(gzipped)
if(CINEFLOW_GZIP)
  foreach(source ${docs})
    get_filename_component(name ${source} NAME)
    add_custom_command(OUTPUT ${generated_dir}/${name}.gz
      COMMAND sh -c "\"$0\" -9nc \"$1\" > \"$2\"" ${CINEFLOW_GZIP} ${source}
              ${generated_dir}/${name}.gz
      DEPENDS ${source} VERBATIM)
    list(APPEND gzipped ${generated_dir}/${name}.gz)
  endforeach()
  install(FILES ${generated_dir}/changelog.gz DESTINATION ${doc_dir})
  if(CINEFLOW_PYTHON3)
    install(FILES ${generated_dir}/cineflow.1.gz DESTINATION share/man/man1)
  endif()
else()
  message(WARNING "gzip not found: the package will lack its manual page and changelog")
endif()
add_custom_target(cineflow_package_docs ALL DEPENDS ${docs} ${gzipped})

if(CINEFLOW_CUDA_ENABLED)
  # NVIDIA's CUDA Toolkit EULA lets these libraries be redistributed unmodified (its Attachment A)
  # with its notice: copied as they are, never stripped or edited. Which ones and from where is
  # read from the built executable and simulator plugin at install time.
  install(CODE [[
    file(GET_RUNTIME_DEPENDENCIES
      EXECUTABLES "$<TARGET_FILE:cineflow>"
      MODULES "$<TARGET_FILE:cineflow_simulator_plugin>"
      RESOLVED_DEPENDENCIES_VAR cuda_libraries
      UNRESOLVED_DEPENDENCIES_VAR unresolved
      PRE_INCLUDE_REGEXES "^libcudart\\.so" "^libcufft\\.so"
      PRE_EXCLUDE_REGEXES ".*")
    if(unresolved OR NOT cuda_libraries)
      message(FATAL_ERROR "Cineflow package: the CUDA runtime libraries were not found "
                          "(unresolved: ${unresolved})")
    endif()
    file(INSTALL ${cuda_libraries} DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/cineflow/cuda"
         FOLLOW_SYMLINK_CHAIN)
  ]])
  # The EULA's text: where a toolkit installer or NVIDIA's wheels put it.
  file(GLOB eula_candidates ${CUDAToolkit_LIBRARY_ROOT}/EULA.txt
       ${CUDAToolkit_LIBRARY_ROOT}/dist-info/nvidia_cuda_runtime-*/licenses/License.txt
       ${CUDAToolkit_BIN_DIR}/../EULA.txt)
  if(eula_candidates)
    list(GET eula_candidates 0 eula)
    install(FILES ${eula} DESTINATION ${doc_dir} RENAME NVIDIA-CUDA-EULA.txt)
  else()
    message(WARNING "CUDA Toolkit EULA.txt not found: the package will lack NVIDIA's notice")
  endif()
  set(cuda ${CUDAToolkit_VERSION_MAJOR})
  set(driver "a driver that supports CUDA ${cuda}")
  if(cuda EQUAL 13)
    set(driver "${driver} (R580 or newer)")
  endif()
  string(CONCAT gpu_statement
    "GPU processing: this package carries NVIDIA's CUDA ${cuda} runtime and cuFFT\n"
    "libraries, unmodified, privately in /usr/lib/cineflow/cuda (the CUDA Toolkit\n"
    "EULA is in /usr/share/doc/cineflow). It neither carries nor depends on the\n"
    "NVIDIA driver. With ${driver} and a\n"
    "Turing or newer GPU, Cineflow processes on the GPU. Without them it says why\n"
    "and uses its multithreaded CPU backend, which needs nothing more.")
  string(CONCAT CINEFLOW_COPYRIGHT_NVIDIA
    "\nFiles: usr/lib/cineflow/cuda/*\n"
    "Copyright: NVIDIA Corporation\n"
    "License: NVIDIA-CUDA-EULA\n"
    " Redistributed unmodified under the NVIDIA CUDA Toolkit End User License\n"
    " Agreement, Attachment A; its full text is in\n"
    " /usr/share/doc/cineflow/NVIDIA-CUDA-EULA.txt.\n")
else()
  string(CONCAT gpu_statement
    "This build has no CUDA backend: it processes on its multithreaded CPU\n"
    "backend, on any machine.")
  set(CINEFLOW_COPYRIGHT_NVIDIA "")
endif()
configure_file(${packaging_dir}/copyright.in ${generated_dir}/copyright @ONLY)
install(FILES ${generated_dir}/copyright DESTINATION ${doc_dir})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cineflow)
set(CPACK_PACKAGE_VENDOR "Cineflow developers")
set(CPACK_PACKAGE_CONTACT ${CINEFLOW_PACKAGE_MAINTAINER})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)  # install(TARGETS) only: the NVIDIA libraries stay as they are
set(CPACK_THREADS 0)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
    GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# gzip packs the ~290 MB of CUDA libraries in about 10 s on two cores; xz makes it 18 % smaller
# in about a minute. (zstd is faster still, but lintian calls such a package malformed.)
set(CINEFLOW_DEB_COMPRESSION gzip CACHE STRING "Compression of the Debian package: gzip or xz")
set(CPACK_DEBIAN_COMPRESSION_TYPE ${CINEFLOW_DEB_COMPRESSION})
# dpkg-shlibdeps finds the shared libraries' packages; what it cannot see: Qt's X11 platform plugin.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# LZ4 and Blosc volume compression; without them those codecs are listed as unavailable.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial")
# The Python module (`import cineflow`, built for this python3; it hands out NumPy arrays) is in
# this package, so the package Recommends what it needs to import: apt installs Recommends by
# default, so `import cineflow` works after a plain install, while the workstation itself (the
# executable and plugins, which never start Python) still installs without them where a site
# leaves Recommends out. Depends would force Python and NumPy onto every scanner PC for a module
# that is not what the package is for.
if(CINEFLOW_PYTHON_ENABLED)
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS
         ", python3 (>= ${CINEFLOW_PYTHON_ABI}), python3 (<< ${CINEFLOW_PYTHON_NEXT_ABI})"
         ", python3-numpy")
endif()
# hdf5-tools to look into saved files; Python with ZeroMQ, h5py and NumPy for send_frames.py.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "hdf5-tools, python3-zmq, python3-h5py")
if(NOT CINEFLOW_PYTHON_ENABLED)
  string(APPEND CPACK_DEBIAN_PACKAGE_SUGGESTS ", python3-numpy")  # else recommended above
endif()
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "live plane-wave ultrasound and OCT imaging workstation")
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Cineflow images raw frames live: ultrasound channel data through bandpass\n"
  "filtering, delay-and-sum beamforming, envelope and log compression, or I/Q\n"
  "demodulation and colour Doppler; spectral-domain OCT spectra through\n"
  "k-linearisation, dispersion compensation and FFT. It shows the images in a\n"
  "Qt 6 window, or runs headless (cineflow --headless) and writes HDF5. Source\n"
  "plugins bring a lab's own scanner; the header and a template are included.\n"
  ".\n"
  "${gpu_statement}")  # CPack indents every line by one space, as a Description wants
include(CPack)
