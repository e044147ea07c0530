// The operator's way to a lab source, under Xvfb: the Lab source dialog lists the shipped source
// plugins and the network stream; a plugin's parameters appear as a form generated from its
// parameter list (ranges, units, defaults), and what the operator types there reaches the plugin
// as JSON; the network page gives the endpoint to listen on. The acquisition panel shows a live
// source's state ("waiting for frames") and counts frames a sender lost apart from frames
// processing dropped.
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "acquisition/source_dialog.hpp"
#include "bridge/engine_controller.hpp"

using cineflow::ui::SourceDialog;

class TestLabSource : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { qunsetenv("CINEFLOW_PLUGIN_PATH"); }

  void theDialogListsPluginsAndTheNetworkStreamWithTheirForms() {
    SourceDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* list = dialog.findChild<QListWidget*>("sourceList");
    QVERIFY(list != nullptr);
    QStringList names;
    for (int row = 0; row < list->count(); ++row) {
      names << list->item(row)->text();
    }
    QVERIFY2(names.contains("Ultrasound simulator") && names.contains("Template point target") &&
                 names.contains("Network stream (ZeroMQ)") &&
                 names.last() == "GenICam camera (OCT)",
             qPrintable(names.join(", ")));

    // The template's form: its three parameters with their ranges, units and defaults.
    list->setCurrentRow(static_cast<int>(names.indexOf("Template point target")));
    auto depths = dialog.findChildren<QDoubleSpinBox*>("plugin_depth_mm");
    QCOMPARE(depths.size(), 1);
    QDoubleSpinBox* depth = depths.first();
    QCOMPARE(depth->minimum(), 2.0);
    QCOMPARE(depth->maximum(), 35.0);
    QCOMPARE(depth->value(), 20.0);
    QCOMPARE(depth->suffix(), QString(" mm"));
    auto* frames = dialog.findChild<QSpinBox*>("plugin_frames");
    QVERIFY(frames != nullptr);
    depth->setValue(27.5);
    frames->setValue(12);
    const QString spec = dialog.spec();
    QVERIFY2(spec.startsWith("plugin:") && spec.contains("libcineflow-template.so#"),
             qPrintable(spec));
    const QJsonObject values = QJsonDocument::fromJson(spec.section('#', 1).toUtf8()).object();
    QCOMPARE(values.value("depth_mm").toDouble(), 27.5);
    QCOMPARE(values.value("frames").toInt(), 12);
    QCOMPARE(values.value("frame_rate_hz").toDouble(), 20.0);

    // The network stream: the endpoint, as typed.
    list->setCurrentRow(static_cast<int>(names.indexOf("Network stream (ZeroMQ)")));
    auto* endpoint = dialog.findChild<QLineEdit*>("streamEndpoint");
    QVERIFY(endpoint != nullptr && endpoint->isVisible());
    QCOMPARE(dialog.spec(), QString("zmq:tcp://*:5555"));
    endpoint->setText(" tcp://127.0.0.1:6000 ");
    QCOMPARE(dialog.spec(), QString("zmq:tcp://127.0.0.1:6000"));
  }

  void thePanelShowsALiveSourcesStateAndItsLostFrames() {
    cineflow::ui::EngineController controller(cineflow::compute::BackendRequest::Cpu);
    cineflow::ui::AcquisitionPanel panel(controller);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(!panel.liveStatus().isVisible());
    cineflow::pipeline::EngineStats stats;
    stats.dropped = 2;
    stats.lost = 5;
    stats.sourceStatus = "waiting for frames on tcp://0.0.0.0:5555: nothing for 3 s";
    emit controller.statsUpdated(stats);
    QVERIFY(panel.liveStatus().isVisible());
    QCOMPARE(panel.liveStatus().text(), QString::fromStdString(stats.sourceStatus));
    const QString alert = panel.droppedAlert().text();
    QVERIFY2(alert.contains("5 frame(s) lost before they reached Cineflow") &&
                 alert.contains("2 more dropped"),
             qPrintable(alert));
    stats.sourceStatus.clear();
    emit controller.statsUpdated(stats);
    QVERIFY(!panel.liveStatus().isVisible());
  }
};

QTEST_MAIN(TestLabSource)
#include "test_lab_source.moc"
