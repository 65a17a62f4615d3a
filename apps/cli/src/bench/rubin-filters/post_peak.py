"""Benchmark filter: faded by more than 0.5 mag since a peak at most 30 days before the newest detection."""
import antares.devkit as dk


class PostPeak(dk.Filter):
    OUTPUT_TAGS = [{'name': 'bench_post_peak', 'description': 'Faded by 0.5 mag since a peak in the last 30 days.'}]

    def run(self, locus):
        p = locus.properties
        peak, newest = p.get('brightest_alert_magnitude'), p.get('newest_alert_magnitude')
        t_peak, t_newest = p.get('brightest_alert_observation_time'), p.get('newest_alert_observation_time')
        if None in (peak, newest, t_peak, t_newest):
            return
        if newest - peak > 0.5 and t_newest - t_peak <= 30:
            locus.tag('bench_post_peak')
