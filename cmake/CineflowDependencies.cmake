# Every dependency is found here, with a message that names the Debian package when it is missing.
find_package(Threads REQUIRED)

function(cineflow_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "${what} not found. Install the Debian package(s) ${package} "
                        "(packaging/install-deps.sh installs everything Cineflow needs).")
  endif()
endfunction()

find_package(HDF5 COMPONENTS C QUIET)
cineflow_require(HDF5_FOUND "HDF5 (C API)" "libhdf5-dev")
if(NOT TARGET cineflow_hdf5)
  add_library(cineflow_hdf5 INTERFACE)
  target_include_directories(cineflow_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  target_link_libraries(cineflow_hdf5 INTERFACE ${HDF5_C_LIBRARIES} ${HDF5_LIBRARIES})
  target_compile_definitions(cineflow_hdf5 INTERFACE ${HDF5_DEFINITIONS} ${HDF5_C_DEFINITIONS})
endif()

find_package(PkgConfig QUIET)
cineflow_require(PkgConfig_FOUND "pkg-config" "pkg-config")
pkg_check_modules(FFTW3F QUIET IMPORTED_TARGET fftw3f)
cineflow_require(FFTW3F_FOUND "FFTW3 (single precision, fftw3f)" "libfftw3-dev")
pkg_check_modules(MATIO QUIET IMPORTED_TARGET matio)
cineflow_require(MATIO_FOUND "matio (MATLAB file import)" "libmatio-dev")
pkg_check_modules(LZ4 QUIET IMPORTED_TARGET liblz4)
cineflow_require(LZ4_FOUND "LZ4 (compressed raw recordings)" "liblz4-dev")
pkg_check_modules(XXHASH QUIET IMPORTED_TARGET libxxhash)
cineflow_require(XXHASH_FOUND "xxHash (raw recordings' frame checksums)" "libxxhash-dev")
# ZeroMQ: the network stream source (libzmq; cppzmq is its header-only C++ binding).
pkg_check_modules(ZMQ QUIET IMPORTED_TARGET libzmq)
cineflow_require(ZMQ_FOUND "ZeroMQ (network frame streams)" "libzmq3-dev")
# libzmq's Cflags carry Kerberos' "-isystem /usr/include/mit-krb5". CMake 3.25's FindPkgConfig
# puts it among the target's include directories on a build folder's first configure and among
# its compile options on every later one, so every object's command line changes and the first
# reconfigure rebuilds everything (CI's make sanitize after make test: minutes). No Kerberos
# header is included: the target gets the Cflags' -I directories only, the same every time.
set(zmq_include_dirs)
foreach(flag IN LISTS ZMQ_CFLAGS)
  if(flag MATCHES "^-I(.+)")
    list(APPEND zmq_include_dirs "${CMAKE_MATCH_1}")
  endif()
endforeach()
set_target_properties(PkgConfig::ZMQ PROPERTIES INTERFACE_COMPILE_OPTIONS ""
                                                INTERFACE_INCLUDE_DIRECTORIES "${zmq_include_dirs}")
find_path(CPPZMQ_INCLUDE_DIR zmq.hpp HINTS ${ZMQ_INCLUDE_DIRS})
set(CPPZMQ_FOUND FALSE)
if(CPPZMQ_INCLUDE_DIR)
  set(CPPZMQ_FOUND TRUE)
endif()
cineflow_require(CPPZMQ_FOUND "cppzmq (zmq.hpp)" "cppzmq-dev")
# Aravis: GenICam cameras (GigE Vision, USB3 Vision) as frame sources (acquire/genicam_camera).
# Its .pc file requires libusb-1.0's.
pkg_check_modules(ARAVIS QUIET IMPORTED_TARGET aravis-0.8>=0.8.20)
cineflow_require(ARAVIS_FOUND "Aravis 0.8 (GenICam cameras)" "libaravis-dev libusb-1.0-0-dev")
# OpenIGTLink: live images to 3D Slicer, PLUS and MITK (engine/link). Debian's package ships no
# imported target, only a library and headers.
find_library(OPENIGTLINK_LIBRARY OpenIGTLink)
find_path(OPENIGTLINK_INCLUDE_DIR igtlImageMessage.h PATH_SUFFIXES openigtlink)
set(OPENIGTLINK_FOUND FALSE)
if(OPENIGTLINK_LIBRARY AND OPENIGTLINK_INCLUDE_DIR)
  set(OPENIGTLINK_FOUND TRUE)
  add_library(OpenIGTLink::OpenIGTLink UNKNOWN IMPORTED GLOBAL)
  set_target_properties(OpenIGTLink::OpenIGTLink PROPERTIES IMPORTED_LOCATION
    "${OPENIGTLINK_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${OPENIGTLINK_INCLUDE_DIR}")
endif()
cineflow_require(OPENIGTLINK_FOUND "OpenIGTLink (live images to 3D Slicer)" "libopenigtlink-dev")

if(CINEFLOW_BUILD_UI OR CINEFLOW_BUILD_TESTS)
  find_package(Qt6 QUIET COMPONENTS Core Widgets OpenGLWidgets Test)
  cineflow_require(Qt6_FOUND "Qt 6 (Widgets, OpenGLWidgets, Test)" "qt6-base-dev libqt6opengl6-dev")
endif()
if(CINEFLOW_BUILD_UI)
  find_package(OpenGL QUIET)
  cineflow_require(OpenGL_FOUND "OpenGL" "libgl-dev")
  find_package(GLEW QUIET)
  cineflow_require(GLEW_FOUND "GLEW" "libglew-dev")
  # The cineloop's video export (MP4, H.264).
  pkg_check_modules(FFMPEG QUIET IMPORTED_TARGET libavformat libavcodec libswscale libavutil)
  cineflow_require(FFMPEG_FOUND "FFmpeg's libraries (libavformat, libavcodec, libswscale)"
                   "libavformat-dev libavcodec-dev libswscale-dev libavutil-dev")
  # The DICOM export.
  find_package(DCMTK QUIET CONFIG)
  cineflow_require(DCMTK_FOUND "DCMTK (DICOM export)" "libdcmtk-dev")
endif()
