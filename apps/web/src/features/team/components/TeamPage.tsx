import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';

import { ErrorState } from '@/components/ErrorState';
import { useTeam } from '@/features/team/api/get-team';
import { type TeamGroup, teamGroups } from '@/features/team/data/team-members';

import { DefaultPhoto } from './DefaultPhoto';
import { ObfuscatedEmail } from './ObfuscatedEmail';

function Group({ group }: { group: TeamGroup }) {
  return (
    <section className="mb-5" aria-labelledby={`team-${group.title}`} data-testid={`team-group-${group.title}`}>
      <h2 id={`team-${group.title}`} className="h4">
        {group.title}
      </h2>
      {group.members.length === 0 ? (
        <p className="text-body-secondary">No {group.title} members</p>
      ) : (
        <Row xs={1} sm={2} lg={3} className="g-3">
          {group.members.map((member) => (
            <Col key={`${member.name}-${member.email ?? ''}`}>
              <Card className="h-100" data-testid="team-member">
                <Card.Body className="d-flex gap-3">
                  {member.photo ? (
                    <img
                      src={member.photo}
                      alt=""
                      width={64}
                      height={64}
                      className="rounded-circle flex-shrink-0"
                      data-testid="member-photo"
                    />
                  ) : (
                    <DefaultPhoto />
                  )}
                  <div>
                    <h3 className="h6 mb-0">
                      {member.link ? (
                        <a href={member.link} target="_blank" rel="noreferrer">
                          {member.name}
                        </a>
                      ) : (
                        member.name
                      )}
                    </h3>
                    <div className="small text-body-secondary">{member.title}</div>
                    {member.bio && <p className="small mb-1">{member.bio}</p>}
                    {member.email && <ObfuscatedEmail email={member.email} />}
                  </div>
                </Card.Body>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </section>
  );
}

export function Component() {
  const team = useTeam();
  return (
    <>
      <h1 className="h3 mb-3">Our Team</h1>
      <p className="text-body-secondary">ANTARES is developed by NSF NOIRLab with the University of Arizona and collaborators.</p>
      {team.isError ? (
        <ErrorState title="Error Loading the Team" message="There was an error loading the team." asJson={false} />
      ) : team.data === undefined ? (
        <Spinner animation="border" role="status" size="sm">
          <span className="visually-hidden">Loading the team</span>
        </Spinner>
      ) : (
        teamGroups(team.data).map((group) => <Group key={group.title} group={group} />)
      )}
    </>
  );
}
