# Class API A reading gravitational-wave notices as the devkit's GW notebook does: the notice objects
# of locus.grav_wave_events_metadata (attributes, event_datetime a datetime), the triggering alert's
# grav_wave_events, REQUIRED_GRAV_WAVE_PROB_REGION; tagging through locus.tags.append as some
# published filters do.
import antares.devkit as dk
from astropy.time import Time


class GwEarlyCounterpart(dk.Filter):
    REQUIRED_GRAV_WAVE_PROB_REGION = 90.0
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'gw_days_after_event', 'type': 'float', 'description': 'days from the GW event to this alert'},
        {'name': 'gw_event', 'type': 'str', 'description': 'the GraceDB id of that event'},
        {'name': 'gw_notice_type', 'type': 'str', 'description': 'type of its latest notice'},
    ]
    OUTPUT_TAGS = [{'name': 'gw_early_counterpart', 'description': 'seen within 3 days of a significant event'}]

    def run(self, locus):
        for event in locus.alert.grav_wave_events:
            notice = locus.grav_wave_events_metadata.get(event['gracedb_id'])
            if notice is None or notice.event_datetime is None:
                continue
            days = locus.alert.mjd - Time(notice.event_datetime).mjd
            locus.properties['gw_days_after_event'] = days
            locus.properties['gw_event'] = notice.gracedb_id
            locus.properties['gw_notice_type'] = str(notice.notice_type)
            if 0.0 <= days < 3.0 and notice.false_alarm_rate < 1e-10:
                locus.tags.append('gw_early_counterpart')
